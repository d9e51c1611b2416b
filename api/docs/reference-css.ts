/** The stylesheet of the /docs page, served as its own file (GET /docs.css) so the page needs no inline style. */
export const REFERENCE_CSS = `:root { color-scheme: light dark; }
body { font: 15px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
code { font: 0.92em ui-monospace, SFMono-Regular, Menlo, monospace; }
h1, h2 { border-bottom: 1px solid #8884; padding-bottom: 0.2em; }
h3 { margin: 2rem 0 0.4rem; }
article { border-top: 1px solid #8882; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; font-size: 0.93em; }
th, td { border: 1px solid #8884; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #8881; }
a { color: inherit; text-decoration-color: #888a; }
`;
