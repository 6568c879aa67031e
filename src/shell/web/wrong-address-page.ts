// What a browser gets at the web shell's port without the right secret: a page that says what
// happened and how to find the right address, instead of a bare "not found". It names no
// secret and loads nothing (no script, no style file, no image).

export const WRONG_ADDRESS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const WRONG_ADDRESS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CutRight: not this address</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{font-size:.95em}</style>
</head>
<body>
<main>
<h1>This is not the address of this CutRight host</h1>
<p>CutRight host runs here, but its page is only at the address it printed when it started, which holds a secret. This address has none, or an old one: each start of the host makes a new secret, so an address from an earlier start stops working.</p>
<h2>How to find the right address</h2>
<ul>
<li>Look in the terminal where <code>cutright</code> (or <code>npm start</code>) runs: it printed the address of the UI when it started.</li>
<li>Started with <code>--json</code>, the host printed it as <code>"ui_url"</code> on its ready line.</li>
<li>Lost it? Stop the host (Ctrl+C in its terminal) and start it again: it prints a new address.</li>
</ul>
</main>
</body>
</html>
`;
