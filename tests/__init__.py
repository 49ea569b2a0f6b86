"""boostlab's tests, in folders mirroring the source tree (docs/development.md)."""
