"""Findings: the catalogue of codes (:mod:`.codes`) and the Finding value (:mod:`.finding`)."""
