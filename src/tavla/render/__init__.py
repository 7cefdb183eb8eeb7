"""Pictures of positions: a board model in the mover's numbering, and SVG drawing."""
