import FuzzSupport

FuzzDriver.run(patternFuzzerTestOneInput)
