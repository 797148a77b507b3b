"""The dice audit (the originals hold that loaded dice are a crime): every
die rolled in a set of game records, counted by kind (d6, d8, d10) and face,
with Pearson's chi-square test of fairness for each kind.

The dice are found by replaying each record under ``dice.recording``, so
any game that rolls dice is audited without knowing how it keeps them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .dice import recording
from .i18n import _
from .match import Match, RecordError


@dataclass(frozen=True)
class Fairness:
    sides: int
    counts: tuple[int, ...]  # faces 1..sides
    chi2: float
    dof: int
    p: float  # the chance of a deviation at least this large from fair dice

    # The chi-square test holds only when each face is expected at least
    # five times (Cochran's rule); below that its p says nothing.
    PER_FACE = 5

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def needed(self) -> int:
        """How many rolls the test needs for this kind of die."""
        return self.PER_FACE * self.sides

    @property
    def testable(self) -> bool:
        return self.rolls >= self.needed

    @property
    def fair(self) -> bool | None:
        """Consistent with fair dice at the 1% level; None: too few rolls to say."""
        return self.p >= 0.01 if self.testable else None

    @property
    def verdict(self) -> str:
        if self.fair is None:
            return _("too few rolls to test (the test needs {needed}, {per_face} a face)").format(
                needed=self.needed, per_face=self.PER_FACE
            )
        return _("consistent with fair dice") if self.fair else _("unlikely from fair dice")


def rolled(records: Iterable[str | dict[str, Any]]) -> tuple[dict[int, Counter[int]], int]:
    """Faces by die kind over ``records`` (JSON texts or dicts), and how
    many records could not be replayed (left out)."""
    faces: dict[int, Counter[int]] = {}
    bad = 0
    for record in records:
        try:
            with recording() as tape:
                Match.from_json(record) if isinstance(record, str) else Match.from_record(record)
        except RecordError:
            bad += 1
            continue
        for sides, face in tape:
            faces.setdefault(sides, Counter())[face] += 1
    return faces, bad


def fairness(sides: int, counts: Counter[int]) -> Fairness:
    observed = tuple(counts.get(f, 0) for f in range(1, sides + 1))
    n = sum(observed)
    expected = n / sides
    chi2 = sum((o - expected) ** 2 / expected for o in observed) if n else 0.0
    dof = sides - 1
    return Fairness(sides, observed, chi2, dof, chi2_sf(chi2, dof) if n else 1.0)


def chi2_sf(x: float, dof: int) -> float:
    """P(X ≥ x) for a chi-square variable with ``dof`` degrees of freedom:
    the regularized upper incomplete gamma Q(dof/2, x/2)."""
    if x <= 0:
        return 1.0
    return _gamma_q(dof / 2, x / 2)


def _gamma_q(a: float, x: float) -> float:
    # Numerical Recipes' gammq: a series below a + 1, a continued fraction above
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h
