"""The bounds explorer: every closed-form bound with its sliders.

This lesson's own parts, named alike in every lesson folder (docs/development.md, "Adding a
lesson page").
"""
