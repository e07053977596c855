/** A table's header row: one muted cell per column label. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="text-left text-xs text-slate-500">
      <tr>
        {columns.map((h) => (
          <th key={h} className="px-5 py-2 font-medium">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}
