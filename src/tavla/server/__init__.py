"""The online platform: HTTP pages and API, websockets, accounts, lobby, live games.

Thin edges over the library: routers and the websocket handler translate and
authorise, a game's room decides through :mod:`tavla.match`, storage stores.
"""
