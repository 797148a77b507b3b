"""``garito stats``, ``garito history``, ``garito export`` and ``garito
audit``: the history and the dice audit, printed (Rich tables; no Textual).
Each returns the exit status; a history that cannot be read says why in
one line and returns 1, a match number it does not hold says so in one
line and returns 2 (a bad argument). Names go into the tables as text,
never as markup."""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from garito.core.i18n import _, ngettext


def _read(what):
    """``what(history)``, or None once the reason the history cannot be
    read is printed; rows it could not read are said in one line."""
    from garito.store.history import History, HistoryError

    try:
        with History() as h:
            out = what(h)
            left_out = h.left_out_text()
    except HistoryError as e:
        print(f"garito: {e}", file=sys.stderr)
        return None
    if left_out:
        print(f"garito: {left_out}", file=sys.stderr)
    return out


def stats(game: str | None, player: str | None) -> int:
    from garito.core import catalog
    from garito.store import stats as st

    entries = _read(lambda h: h.entries(game))
    if entries is None:
        return 1
    lines = st.lines(entries, player)
    console = Console()
    if not lines:
        console.print(_("No finished matches yet.") if not (game or player) else _("No matches for that."))
        return 0
    table = Table(title=_("Statistics"), title_justify="left", box=None, pad_edge=False)
    for col, just in [
        (_("Player"), "left"),
        (_("Game"), "left"),
        (_("Played"), "right"),
        (_("Won"), "right"),
    ]:
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for col in (_("Lost"), _("Drawn"), _("Win rate"), _("Streak"), _("Best run")):
        table.add_column(col, justify="right")
    ordered = sorted(lines, key=lambda x: (x.player, x.game))
    for line in ordered:
        table.add_row(
            Text(line.player),
            catalog.get(line.game).title,
            str(line.played),
            str(line.won),
            str(line.lost),
            str(line.drawn),
            f"{line.rate:.0%}",
            line.streak,
            str(line.best_streak),
        )
    console.print(table)
    records = Table(title="\n" + _("Records"), title_justify="left", box=None, pad_edge=False)
    for col in (_("Player"), _("Game"), _("Record")):
        records.add_column(col)
    records.add_column("", justify="right")
    kinds = {}
    for line in ordered:
        kinds = st.kinds(line.game)
        for key, value in line.records.items():
            records.add_row(
                Text(line.player), catalog.get(line.game).title, _(kinds.get(key, (key,))[0]), f"{value:g}"
            )
    if records.row_count:
        console.print(records)
    return 0


def history(game: str | None) -> int:
    from garito.core import catalog

    entries = _read(lambda h: h.entries(game))
    if entries is None:
        return 1
    console = Console()
    if not entries:
        console.print(_("No finished matches yet."))
        return 0
    table = Table(box=None, pad_edge=False)
    for col in ("#", _("Finished (UTC)"), _("Game"), _("Players"), _("Result")):
        table.add_column(col)
    for e in entries:
        table.add_row(
            str(e.id),
            Text(e.finished[:16].replace("T", " ")),
            catalog.get(e.game).title,
            Text(", ".join(e.players)),
            Text(e.result_text()),
        )
    console.print(table)
    return 0


def export(match_id: int, as_text: bool) -> int:
    from garito.core.match import RecordError
    from garito.store.history import History, HistoryError, NoSuchMatch

    try:
        with History() as h:
            record = h.record(match_id)
    except NoSuchMatch:  # a match number is an argument: a bad one exits 2
        print(_("garito: error: no match {number} in the history").format(number=match_id), file=sys.stderr)
        return 2
    except HistoryError as e:
        print(f"garito: {e}", file=sys.stderr)
        return 1
    if not as_text:
        print(record_json(record))
        return 0
    try:
        print(transcript(record))
    except RecordError as e:
        said = _("garito: match {number} no longer replays ({why}); export it as JSON.")
        print(said.format(number=match_id, why=e), file=sys.stderr)
        return 1
    return 0


def record_json(record: dict) -> str:
    """A record as the JSON an export holds: letters as they are, unless a
    damaged record holds what no file can encode (then escaped)."""
    text = json.dumps(record, indent=1, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(record, indent=1)
    return text


def transcript(record: dict) -> str:
    """A record as a readable text: who played what, then the story."""
    from garito.core.match import Match

    m = Match.from_record(record)
    rules = m.rules
    seats = ", ".join(
        _("{name} (human)").format(name=s.name)
        if s.is_human
        else _("{name} (computer, {level})").format(name=s.name, level=s.level)
        for s in m.seats
    )
    rules_text = ", ".join(f"{k}={v}" for k, v in m.config.to_dict().items() if k != "players")
    said = _("Rules: {rules}; seed {seed}").format(rules=rules_text or _("the defaults"), seed=m.seed)
    out = [f"{rules.title}: {seats}", said, ""]
    for n, action in enumerate(m.actions, 1):
        out.append(f"{n:>4}. {action}")
    out.append("")
    out += [rules.narrate(e, m.names) for e in m.state.events]
    out += ["", rules.summary(m.state, m.names)]
    return "\n".join(out)


def audit() -> int:
    from garito.core.audit import fairness, rolled

    read = _read(lambda h: rolled(list(h.records())))
    if read is None:
        return 1
    faces, bad = read
    console = Console()
    if not faces:
        console.print(_("No dice rolled in the history yet."))
        return 0
    for sides in sorted(faces):
        f = fairness(sides, faces[sides])
        rolls = ngettext("d{sides}: {count} roll", "d{sides}: {count} rolls", f.rolls).format(
            sides=sides, count=f"{f.rolls:,}"
        )
        table = Table(title=rolls, title_justify="left", box=None, pad_edge=False)
        table.add_column(_("Face"))
        table.add_column(_("Count"), justify="right")
        table.add_column(_("Share"), justify="right")
        for face, n in enumerate(f.counts, 1):
            table.add_row(str(face), f"{n:,}", f"{n / f.rolls:.1%}")
        console.print(table)
        if f.fair is None:
            console.print(f"  {f.verdict[0].upper()}{f.verdict[1:]}.\n")
            continue
        test = _("chi-square {chi2} on {dof} degrees of freedom, p = {p}").format(
            chi2=f"{f.chi2:.2f}", dof=f.dof, p=f"{f.p:.3f}"
        )
        console.print(f"  {test}: {f.verdict}\n")
    if bad:
        console.print(_("{count} record(s) could not be replayed and were left out.").format(count=bad))
    return 0
