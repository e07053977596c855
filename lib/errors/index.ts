export {
  CATALOGUE,
  type CatalogueEntry,
  ERROR_CODES,
  type ErrorCode,
  isErrorCode,
  type Surface,
} from "./catalogue";
export { DomainError, forbidden, invalidInput, isDomainError, notFound } from "./domain-error";
export { nulCharacters } from "./nul";
export { storageValueError } from "./storage";
export { type FieldIssue, fieldIssues, toDomainError, zodToDomain } from "./zod";
