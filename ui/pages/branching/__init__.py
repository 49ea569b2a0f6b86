"""Divide and merge: InfoBoost, DT.InfoBoost, BP.InfoBoost: docs/theory.md §2.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
