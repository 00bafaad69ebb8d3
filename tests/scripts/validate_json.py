#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema (Debian's python3-jsonschema, draft 2020-12).

usage: validate_json.py SCHEMA FILE...   ("-" reads stdin)
Exit 0 when every document is valid; 1 naming each error (file, path into the document, message).
"""
import json
import sys

import jsonschema


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for name in sys.argv[2:]:
        try:
            text = sys.stdin.read() if name == "-" else open(name, encoding="utf-8").read()
            doc = json.loads(text)
        except (OSError, json.JSONDecodeError) as e:
            print(f"{name}: cannot be read as JSON: {e}", file=sys.stderr)
            bad += 1
            continue
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(the document)"
            print(f"{name}: {where}: {error.message}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
