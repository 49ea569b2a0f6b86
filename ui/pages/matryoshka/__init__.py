"""Probabilistic boosting trees and Grossmann's matryoshka: docs/theory.md §3.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
