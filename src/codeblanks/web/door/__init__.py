"""The web app's door and its operations: the ASGI application and its two handlers
(``asgi``), request bodies bounded in size and time (``bodies``), connections per address
(``connections``), draining on stop (``draining``), database outages (``outages``), the request
log and metrics (``requestlog``, ``metrics``, ``logs``), the middleware that every answer goes
through (``middleware``), the server that runs it all (``serve``) and its collector
(``heap``), and what is read off the request for everyone: the client's address
(``addresses``) and the language (``languages``).
Nothing here knows lessons or learners: those are ``learner``, ``pages`` and ``views``."""
