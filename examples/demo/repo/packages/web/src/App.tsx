export function App() {
  return <h1>Acme gateway</h1>;
}
