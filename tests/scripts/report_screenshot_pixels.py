#!/usr/bin/python3
"""Counts the data-coloured pixels of a screenshot inside each rectangle given.

Usage: report_screenshot_pixels.py SHOT.png X,Y,W,H ...
Prints one line per rectangle: "X,Y,W,H COLOURED", where COLOURED is how many pixels inside it are
saturated (the largest and smallest of R, G, B more than 60 apart): the report's lines, bands,
bars and heat-map cells are; its text, grid and frames (greys) and the white page are not. The
report test (tests/report/report_chromium_test.cpp) reads the counts and decides. Debian's
python3-pil reads the PNG.
"""
import sys

from PIL import Image


def coloured(image, x, y, w, h):
    box = image.crop((x, y, min(x + w, image.width), min(y + h, image.height)))
    return sum(1 for r, g, b in box.getdata() if max(r, g, b) - min(r, g, b) > 60)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: report_screenshot_pixels.py SHOT.png X,Y,W,H ...")
    image = Image.open(sys.argv[1]).convert("RGB")
    print(f"size {image.width},{image.height}")
    for rect in sys.argv[2:]:
        x, y, w, h = (int(v) for v in rect.split(","))
        print(f"{rect} {coloured(image, x, y, w, h)}")


main()
