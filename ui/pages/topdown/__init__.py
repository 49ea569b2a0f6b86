"""Top-down growth (Kearns–Mansour, Hatano's TOPDOWN-M, Mansour–McAllester): docs/theory.md §1.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
