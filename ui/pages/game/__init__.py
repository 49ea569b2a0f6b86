"""Hatano's Weight Distribution Game: docs/theory.md §1.5.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
