/** A titled white card: one section of a page, labelled by its heading. */
export function Card({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id} className="card-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
