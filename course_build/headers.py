"""The site's `_headers` file (the Netlify / Cloudflare Pages format), read back.

The plugin writes it and never reads it back; the local static server
(tools/site_server.py), which every test serves the site with, reads it here, so what
the tests get is what the build declared for a host.
"""

from pathlib import Path


def header_rules(site):
    """[(path pattern, [(name, value), ...]), ...] in file order; [] when there is no `_headers`."""
    rules, path = [], Path(site) / "_headers"
    if not path.is_file():
        return rules
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        if line and not line[0].isspace():
            rules.append((line.strip(), []))
        elif line.strip() and rules:
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def site_header(site, name, pattern="/*"):
    """The value `_headers` gives header `name` (any case) for `pattern`, or None."""
    for rule, headers in header_rules(site):
        if rule == pattern:
            for key, value in headers:
                if key.lower() == name.lower():
                    return value
    return None
