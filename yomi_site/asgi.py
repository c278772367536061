"""ASGI entry point: HTTP through Django, websockets (the match rooms) through Channels.

Serve it with daphne (``daphne yomi_site.asgi:application``); docker-compose.yml and the README
show how. Sessions authenticate websockets as they do pages; the origin must be an allowed host.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yomi_site.settings")
django_asgi_app = get_asgi_application()  # first: it sets Django up for the imports below

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from rooms.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
