"""A gettext catalog's source (``.po``) compiled to what ``gettext`` reads
(``.mo``), with the standard library only: the build runs it (setup.py), so
an install needs no translation tool, and ``make catalogs`` runs it for a
working copy. Babel extracts and merges the sources (``make messages``); this
only compiles them, the way GNU msgfmt does (fuzzy entries left out)."""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path


def _parse(text: str) -> dict[str, str]:
    """msgid (with its context and plural, joined as gettext keys them) to
    msgstr (plural forms joined by NUL)."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    fuzzy = False
    current = ""

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields and not fuzzy:
            key = fields["msgid"]
            if "msgid_plural" in fields:
                key += "\0" + fields["msgid_plural"]
                forms = sorted((k for k in fields if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
                value = "\0".join(fields[k] for k in forms)
            else:
                value = fields.get("msgstr", "")
            if "msgctxt" in fields:
                key = fields["msgctxt"] + "\x04" + key
            if value.replace("\0", "") or not key:
                entries[key] = value
        fields.clear()
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            if fields.get("msgstr") is not None or any(k.startswith("msgstr[") for k in fields):
                flush()
            fuzzy = True
            continue
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            fields[current] += ast.literal_eval(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            flush()
        current = keyword
        fields[current] = ast.literal_eval(rest.strip())
    flush()
    return entries


def mo_bytes(po_text: str) -> bytes:
    """The ``.mo`` file for a ``.po`` file's text (GNU format, revision 0)."""
    entries = _parse(po_text)
    keys = sorted(entries)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        k, v = key.encode("utf-8"), entries[key].encode("utf-8")
        offsets.append((len(ids), len(k), len(strs), len(v)))
        ids += k + b"\0"
        strs += v + b"\0"
    n = len(keys)
    key_start = 7 * 4 + 16 * n
    value_start = key_start + len(ids)
    table = []
    for id_off, id_len, str_off, str_len in offsets:
        table.append((id_len, key_start + id_off, str_len, value_start + str_off))
    head = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    body = b"".join(struct.pack("ii", length, off) for length, off, _, _ in table)
    body += b"".join(struct.pack("ii", length, off) for _, _, length, off in table)
    return head + body + ids + strs


def compile_all(root: Path) -> list[Path]:
    """Every ``<lang>/LC_MESSAGES/*.po`` under ``root`` compiled beside
    itself, when its ``.mo`` is missing or differs; the ``.mo`` files."""
    written = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = mo_bytes(po.read_text(encoding="utf-8"))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_all(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent):
        print(path)
