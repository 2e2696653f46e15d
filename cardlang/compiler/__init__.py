"""The compiler: a checked game becomes the program that the runtime runs."""
