CREATE TABLE "tally" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"bucket" text NOT NULL,
	"n" bigint NOT NULL,
	"cents" bigint DEFAULT 0 NOT NULL
);
