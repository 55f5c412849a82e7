project = "themes"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
copyright = "2026, sphinxcontrib-mlglossary tests"
version = "1.0"
# the theme comes from the command line: -D html_theme=furo
