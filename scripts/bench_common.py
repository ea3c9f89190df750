"""What scripts/bench-run and scripts/bench-callgrind share: the links bench's files, the user agents of its rows,
and the shipped logging settings every benchmarked server runs with (imported from the scripts' own folder)."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINKS_DIR = os.path.join(ROOT, "Benchmarks", "links")

# The user agents of the links rows: a person's tap on an iPhone, and a chat app's link previewer.
AGENTS = {
    "iphone": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
              "Version/17.0 Mobile/15E148 Safari/604.1",
    "slackbot": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
}


def shipped_logging():
    """The shipped config's logging (config/linkserver.json: the access line at debug under an info logger), so that
    a benchmarked request pays whatever deciding not to write the line costs, as it does for anyone running it."""
    with open(os.path.join(ROOT, "config", "linkserver.json")) as f:
        return json.load(f)["logging"]


def links_settings():
    """The links bench's config (Benchmarks/links/config.json) with the shipped logging."""
    with open(os.path.join(LINKS_DIR, "config.json")) as f:
        settings = json.load(f)
    settings["logging"] = shipped_logging()
    return settings
