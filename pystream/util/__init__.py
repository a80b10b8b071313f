"""Utilities a PyFlink program imports from ``pyflink.util``."""
