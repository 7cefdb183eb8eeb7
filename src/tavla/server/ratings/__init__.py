"""The federations' ratings on the platform (docs/ratings.md): applying official
tournament results, the ratings lists, and the history on the profile page."""
