"""The benchmark on real data: every algorithm against scikit-learn.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
