"""Edited copies of JSON logs, for scripts/compare-engines.sh: for each input log, one NDJSON
file of edits (entries removed, repeated, given to another seat, reordered members, unknown
members, repeated members, numbers out of range, changed ids, escapes, truncation, junk).

    python3 edit_logs.py OUTDIR LOG.json...
"""
import json
import os
import random
import sys


def entry_edits(log, k, entries):
    text = json.dumps(log)
    entry = json.dumps(entries[k])
    edited = []
    for change in ("delete", "repeat", "seat"):
        copy = json.loads(text)
        if change == "delete":
            del copy["entries"][k]
        elif change == "repeat":
            copy["entries"].insert(k, entries[k])
        elif isinstance(entries[k], dict) and isinstance(entries[k].get("player"), int):
            copy["entries"][k]["player"] = (entries[k]["player"] + 1) % 3
        edited.append(json.dumps(copy))
    if entry.startswith("{") and ", " in entry:
        first, _, rest = entry[1:-1].partition(", ")
        edited.append(text.replace(entry, "{" + rest + ", " + first + "}", 1))  # tag last
        edited.append(text.replace(entry, entry[:-1] + ', "x": 1}', 1))  # unknown member
        edited.append(text.replace(entry, entry[:-1] + ", " + first + "}", 1))  # repeated tag
        edited.append(text.replace(entry, entry.replace(": ", ": 1e999, " + first.split(":")[0] + ": ", 1), 1))
    quotes = [i for i, c in enumerate(entry) if c == '"']
    if len(quotes) >= 6:
        at = quotes[5]
        edited.append(text.replace(entry, entry[: at + 1] + "zz" + entry[at + 1 :], 1))  # changed id
        edited.append(text.replace(entry, entry[: at + 1] + "\\u0061" + entry[at + 1 :], 1))  # escape
    edited.append(text.replace(entry, entry.replace(": ", ":\t", 1), 1))  # other whitespace
    return edited


def log_edits(text):
    log = json.loads(text)
    entries = log.get("entries", []) if isinstance(log, dict) else []
    entries = entries if isinstance(entries, list) else []
    picks = random.Random(len(text)).sample(range(len(entries)), min(6, len(entries))) if entries else []
    edited = [e for k in picks for e in entry_edits(log, k, entries)]
    whole = json.dumps(log)
    edited += [
        whole[: len(whole) // 2],
        whole + " ",
        whole.replace('"setup"', '"meta": {"id": 1e999}, "setup"', 1),
        whole.replace('"setup"', '"meta": {"id": "x"}, "meta": {"id": "y"}, "setup"', 1),
        whole.replace('"setup"', '"claimed": null, "setup"', 1),
        whole.replace('"format": ', '"format": "x", "format": ', 1),
        whole.replace('"entries": [', '"entries": [1, ', 1),
        whole.replace('"entries"', '"e\\u006etries"', 1),
    ]
    return edited


def main():
    out_dir = sys.argv[1]
    for path in sys.argv[2:]:
        try:
            text = open(path, encoding="utf-8").read()
            json.loads(text)
        except (OSError, ValueError):
            continue
        name = os.path.join(out_dir, os.path.basename(path) + ".edits.ndjson")
        with open(name, "w", encoding="utf-8") as f:
            for edit in log_edits(text):
                f.write(edit.replace("\n", " ") + "\n")


main()
