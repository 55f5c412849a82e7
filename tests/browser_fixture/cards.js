/* hand-written cards for index.html, in the shape of a site's mlglossary-cards.js */
window.mlglossaryCards = {
 "trigger": "hover",
 "cards": {
  "0": "<div class=\"mlglossary-card\" role=\"dialog\" aria-label=\"attention mask\" data-mlglossary-href=\"glossary.html#term-attention-mask\">\n<p class=\"mlglossary-card-title\"><strong>attention mask</strong></p>\n<p class=\"mlglossary-card-summary\">A tensor of ones and zeros, passed as <code>attention_mask</code>, telling the model which <a href=\"glossary.html#term-token\">tokens</a> to look at and which are <em>padding</em> it must ignore when batching sequences of different lengths.</p>\n<p class=\"mlglossary-card-more\"><a href=\"glossary.html#term-attention-mask\">Read more</a></p>\n</div>",
  "1": "<div class=\"mlglossary-card\" role=\"dialog\" aria-label=\"masked language modeling\" data-mlglossary-href=\"glossary.html#term-masked-language-modeling\">\n<p class=\"mlglossary-card-title\"><strong>masked language modeling</strong> <span class=\"mlglossary-card-abbr\">(MLM)</span></p>\n<p class=\"mlglossary-card-summary\">Pretraining by hiding tokens and predicting them.</p>\n<p class=\"mlglossary-card-more\"><a href=\"glossary.html#term-masked-language-modeling\">Read more</a></p>\n</div>"
 }
};
