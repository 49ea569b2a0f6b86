"""Boosted oblique trees: G1, AdaBoost_R, BoostODT (Henry–Nock–Nielsen): docs/theory.md §4.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
