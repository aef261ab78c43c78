// GraphiQL's start-up, loaded before the bundle: Monaco's editor workers come from this service's own URLs (listed
// in the page's JSON block), and the editor is drawn once the bundle has run.
(() => {
  const config = JSON.parse(document.getElementById('graphiql-config').textContent);
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) => config.workers[label],
  };
  document.addEventListener('DOMContentLoaded', () => {
    window.YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), config.options);
  });
})();
