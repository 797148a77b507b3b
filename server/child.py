"""The first thing a player's app process does under ``garito serve``:
make sure it ends with its connection, and cannot take the host.

``garito serve`` starts each app as ``python -c "...child import main;
main()"`` in a new session (``start_new_session``) on its pty; before the app
is imported, ``main``:

* puts the signals the server may have inherited ignored or blocked (``nohup``
  ignores SIGHUP, and an ignored signal stays ignored across exec) back to
  their defaults, so the hang-up that closing the pty sends ends the app;
* makes the pty its controlling terminal (TIOCSCTTY), so that hang-up comes;
* asks the kernel for SIGKILL when the server dies (``PR_SET_PDEATHSIG``,
  Linux), and leaves at once if it already has;
* caps its own address space (``RLIMIT_AS``, ``GARITO_APP_MEMORY`` bytes):
  past it an allocation fails in this process only.

Then it runs the app, or, given a command, becomes it (``exec``: the limits
and dispositions carry over), which is how tests and benches serve another
program. Doing this here rather than in a ``preexec_fn`` keeps Python code
out of the forked copy of a server that has threads.
"""

from __future__ import annotations

import os
import signal
import sys

SERVER = "GARITO_SERVER_PID"
MEMORY = "GARITO_APP_MEMORY"
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the pty's hang-up and the server's reaping still end it
    if parent and os.getppid() != parent:
        os._exit(1)  # the server died before the request took: nobody is there


def setup(environ=os.environ) -> None:
    parent = int(environ.pop(SERVER, "0") or 0)
    memory = int(environ.pop(MEMORY, "0") or 0)
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    _die_with_parent(parent)
    try:
        import fcntl
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError:
        pass  # not a terminal (a test's pipe): nothing to hang up
    if memory:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def main() -> None:
    setup()
    if len(sys.argv) > 1:
        os.execvp(sys.argv[1], sys.argv[1:])
    from garito.tui.cli import entry

    entry()


if __name__ == "__main__":  # pragma: no cover
    main()
