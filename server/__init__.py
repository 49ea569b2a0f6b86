"""The class server: the class store, its Redis version for a lecture hall and the HTTP routes
a follower's phone and the teacher's page talk to (docs/classroom-server.md).

Nothing here imports Streamlit or ``ui``: the routes are plain Starlette, mounted by
``serve.py`` beside the Streamlit app, and ``tests/test_architecture.py`` holds the rule.
"""
