"""The benchmark on real data: every algorithm against scikit-learn.

This lesson's own parts, named alike in every lesson folder (README, "Adding a lesson page").
"""
