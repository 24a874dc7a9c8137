"""The clock in a web page (docs/web.md): the page's Python, its files and its build."""
