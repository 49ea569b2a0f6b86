"""The class's page side: the teacher's *Teach a class* bar and a follower's page
(``teach.py``, with ``klass.js`` in the browser, kept in parts in ``js/``) and the pooled
splits (``pool.py``).

The class server these pages talk to is the top-level ``server`` package; the page header
every page shares is ``ui/header.py``.
"""
