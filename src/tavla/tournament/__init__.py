"""Tournaments: Swiss (Dutch system), single elimination and round robin; standings and
tie-breaks; the FIDE Tournament Report File. Pure and synchronous: the server stores
tournaments and reacts to finished games, this package only computes.
"""
