"""The browser client: static files (HTML, CSS, ES modules) served by ``paiju serve``.

``index.html`` is served at ``/`` and every other file of this package at ``/assets/<path>``
(read with ``importlib.resources``, so an installed wheel serves them too). No build step:
the files are the client. ``vendor/preact-htm.js`` is preact + htm (see ``vendor/README.txt``).
"""
