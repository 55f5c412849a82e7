project = "autolink-md"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
mlglossary_autolink = "all"
mlglossary_autolink_include = ["token", "transformer", "channel", "pipeline", "DP"]
