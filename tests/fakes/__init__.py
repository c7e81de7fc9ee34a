"""Local stand-ins for the chat platforms' servers, on 127.0.0.1."""

from aiohttp import web


async def serve(app: web.Application) -> tuple[web.AppRunner, str]:
    """Start `app` on a free port of 127.0.0.1; returns the runner and the base URL."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"
