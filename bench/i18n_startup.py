"""What speaking Spanish or Galician costs at start-up, measured side by
side in one run in a real pseudo-terminal at 80×24.

Garito is launched alternately in English (LANG=C.UTF-8: no catalog is
read) and in each other language (LANG=es_ES.UTF-8, gl_ES.UTF-8: its
catalog is read and the menu drawn in it), each run timed from launch to
the menu's motto in that language. Prints the medians and each language's
ratio to English (target ≤ 1.05), then the catalogs' own cost in process
(reading and parsing a .mo) and how many texts each one translates.

    python bench/i18n_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import first_frame  # noqa: E402

MOTTO = {
    "en": (b"a parlor of dice and cards", "C.UTF-8"),
    "es": (b"un garito de dados y cartas", "es_ES.UTF-8"),
    "gl": (b"un garito de dados e cartas", "gl_ES.UTF-8"),
}


def launch(lang: str, home: str) -> float:
    marker, locale = MOTTO[lang]
    for name in ("LC_ALL", "LC_MESSAGES"):
        os.environ.pop(name, None)
    os.environ["LANG"] = locale
    seconds, _ = first_frame(
        [sys.executable, "-c", "from garito.tui.cli import entry; entry()"], marker, home
    )
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    times: dict[str, list[float]] = {lang: [] for lang in MOTTO}
    with tempfile.TemporaryDirectory() as home:
        Path(home, "settings.json").write_text('{"player": "Bench"}')
        for lang in MOTTO:  # one unmeasured launch each: the disk cache warm for all
            launch(lang, home)
        for _ in range(args.runs):
            for lang in MOTTO:
                times[lang].append(launch(lang, home))
    english = statistics.median(times["en"])
    print(f"first frame of the menu, median of {args.runs} launches each, alternating:")
    for lang, runs in times.items():
        median = statistics.median(runs)
        print(f"  {lang}: {median * 1000:7.1f} ms   ratio to English {median / english:.3f}")

    from garito.core import i18n

    print("the catalog alone, in process (read and parse the .mo), median of 200:")
    for lang in ("es", "gl"):
        spent = []
        for _ in range(200):
            i18n.translations.cache_clear()
            t0 = time.perf_counter()
            i18n.translations(lang)
            spent.append(time.perf_counter() - t0)
        catalog = i18n.translations(lang)
        texts = sum(1 for key in catalog._catalog if key and (not isinstance(key, tuple) or key[1] == 0))  # type: ignore[attr-defined]
        print(f"  {lang}: {statistics.median(spent) * 1e6:6.0f} µs, {texts} texts translated")


if __name__ == "__main__":
    main()
