// monaco-yaml's worker, imported from our own file so that Vite bundles it as a worker chunk (see
// monaco-yaml's README, "Why doesn't it work with Vite?").
import 'monaco-yaml/yaml.worker.js';
