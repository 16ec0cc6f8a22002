// Start Swagger UI on the service's own document; kept out of the page so the CSP needs no inline script.
window.ui = SwaggerUIBundle({ url: "/openapi.yaml", dom_id: "#swagger-ui", deepLinking: true });
