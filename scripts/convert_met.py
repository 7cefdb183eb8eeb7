"""Write a published match equity table as the package's compact JSON.

Usage: python scripts/convert_met.py [/usr/share/gnubg/met/Kazaross-XG2.xml] [out.json]

The tables come as XML files in the Debian ``gnubg`` package (the file's DTD is
``met.dtd`` beside it). Only the figures and the file's own credits are kept: the
pre-Crawford table (row: the player's points to go, column: the opponent's, both
from 1) and the post-Crawford table (the trailer's match winning chance when the
leader is 1-away, by the trailer's points to go). ``tavla.bots.met`` reads the result.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

DEFAULT_XML = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src/tavla/bots/data/met-kazaross-xg2.json"


def read_met(path: Path) -> dict[str, object]:
    root = ET.parse(path).getroot()
    info = root.find("info")
    pre = root.find("pre-crawford-table")
    post = root.find("post-crawford-table")
    if info is None or pre is None or post is None:
        raise ValueError(f"{path}: not a match equity table (info, pre- and post-Crawford tables)")
    if pre.get("type") != "explicit" or post.get("type") != "explicit" or post.get("player") != "both":
        raise ValueError(f"{path}: only explicit tables with one post-Crawford row for both are read")
    pre_rows = [[float(cell.text or "") for cell in row.iter("me")] for row in pre.iter("row")]
    (post_row,) = [[float(cell.text or "") for cell in row.iter("me")] for row in post.iter("row")]
    length = int(info.findtext("length", "0"))
    if len(pre_rows) != length or any(len(row) != length for row in pre_rows) or len(post_row) != length:
        raise ValueError(f"{path}: the tables are not {length} x {length} and {length}")
    return {
        "name": info.findtext("name", ""),
        "description": info.findtext("description", ""),
        "source": f"{path.name} as installed by the Debian gnubg package",
        "notice": _notice(path.read_text(encoding="utf-8")),
        "length": length,
        "pre_crawford": pre_rows,
        "post_crawford": post_row,
    }


def _notice(xml: str) -> str:
    """The file's credits and copying notice, which must travel with the figures."""
    comment = re.search(r"<!--(.*?)-->", xml, re.DOTALL)
    if comment is None or "Copyright" not in comment.group(1):
        raise ValueError("the table's copyright notice was not found")
    text = re.sub(r"\$Id:.*?\$", "", comment.group(1))
    return " ".join(text.split())


def write_compact(table: dict[str, object], out: Path) -> None:
    """One table row per line: small, and a diff shows which row changed."""
    lines = ["{"]
    for key in ("name", "description", "source", "notice", "length"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(table[key])},")
    rows = table["pre_crawford"]
    assert isinstance(rows, list)
    lines.append('  "pre_crawford": [')
    lines.extend(f"    {json.dumps(row)}{',' if i < len(rows) - 1 else ''}" for i, row in enumerate(rows))
    lines.append("  ],")
    lines.append(f'  "post_crawford": {json.dumps(table["post_crawford"])}')
    lines.append("}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> None:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_XML
    out = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUT
    write_compact(read_met(source), out)
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv)
