"""Training of the dice games' evaluators: the layer above the bots that writes files,
runs teachers (GNU Backgammon) and shows progress through callbacks."""
