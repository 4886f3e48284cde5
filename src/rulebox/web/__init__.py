"""The static web client (HTML, CSS, JavaScript modules; no build step).

It renders the JSON views the server sends and posts move text; it knows no rules.
"""
