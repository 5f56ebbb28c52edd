
export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address.</p>
      <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">Home</a>
    </div>
  );
}
