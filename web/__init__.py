"""The score panel: Flask app factory, pages, live updates and the JSON API."""
