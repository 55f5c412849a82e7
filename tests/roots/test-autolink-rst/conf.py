project = "autolink-rst"
extensions = ["sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
mlglossary_autolink = "all"
mlglossary_autolink_include = ["token", "transformer", "channel", "pipeline", "DP"]
