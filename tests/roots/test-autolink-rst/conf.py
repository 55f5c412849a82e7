project = "autolink-rst"
extensions = ["sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
mlglossary_autolink = "all"
# single everyday words are linked only when a project asks: these tests ask, to see
# where links never go even then
mlglossary_autolink_include = ["token", "transformer", "channel", "pipeline", "DP", "backbone", "pooling", "inference", "stride", "convolution"]
