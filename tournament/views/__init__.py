"""Thin views: parse the request, call one function, render."""
