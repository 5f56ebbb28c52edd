/** GET /: the start form, prerendered (nothing on it depends on the request). */
export default function HomePage() {
  return (
    <main>
      <h1>Verify your identity</h1>
      <form method="post" action="/auth/start">
        <input type="hidden" name="preset" value="full-kyc" />
        <button>Verify with the full KYC preset</button>
      </form>
    </main>
  );
}
