"""How a game's rule variants are offered: one ``Variant`` per config field.

The new-game dialog and the CLI's ``--rule`` read these; the config
dataclass stays the one place that validates a combination.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Variant:
    key: str  # the config field
    label: str
    choices: tuple[Any, ...]
    labels: tuple[str, ...] = ()  # how each choice reads; str(choice) if empty
    needs: tuple[str, tuple[Any, ...]] | None = (
        None  # shown only when another variant has one of these values
    )
    help: str = ""

    def label_of(self, value: Any) -> str:
        if self.labels:
            return self.labels[self.choices.index(value)]
        return str(value)

    def parse(self, text: str) -> Any:
        """A choice from the CLI: by value or by its label."""
        for value, label in zip(self.choices, self.labels or [str(c) for c in self.choices]):
            if text in (str(value), label):
                return value
        allowed = ", ".join(str(c) for c in self.choices)
        raise ValueError(f"{self.key} is one of {allowed}, not {text!r}")

    def active(self, values: dict[str, Any]) -> bool:
        if self.needs is None:
            return True
        key, allowed = self.needs
        return values.get(key) in allowed
