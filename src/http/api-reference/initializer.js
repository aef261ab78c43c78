// The API reference page's start-up (GET /docs). A file of its own, not an inline script, so the page's
// Content-Security-Policy can refuse every inline and foreign script.
window.addEventListener('DOMContentLoaded', () => {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    tryItOutEnabled: true,
    // Keeps the bearer token entered under "Authorize" across reloads (the browser's localStorage, this origin only).
    persistAuthorization: true,
    displayRequestDuration: true,
    // The default posts the document's URL to validator.swagger.io for a badge: another origin, and a leak.
    validatorUrl: null,
    // The plain layout: the standalone preset's top bar only offers a box to open some other document's URL.
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
