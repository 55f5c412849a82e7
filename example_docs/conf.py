"""Example project for sphinxcontrib-mlglossary: read it, build it, copy what you need."""

project = "Tiny Transformers Handbook"
author = "sphinxcontrib-mlglossary"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
html_title = "Tiny Transformers Handbook"
